import os

from piccolo.conf.apps import AppConfig

from server.training.tables import TrainingRun

APP_CONFIG = AppConfig(
    app_name="training",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[TrainingRun],
    migration_dependencies=["server.accounts.piccolo_app", "server.tasks.piccolo_app", "server.evaluation.piccolo_app"],
    commands=[],
)
