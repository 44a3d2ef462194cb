import os

from piccolo.conf.apps import AppConfig

from server.tasks.tables import Context, Round, Task, TaskOwner

APP_CONFIG = AppConfig(
    app_name="tasks",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[Task, TaskOwner, Round, Context],
    migration_dependencies=["server.accounts.piccolo_app"],
    commands=[],
)
