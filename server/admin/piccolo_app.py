import os

from piccolo.conf.apps import AppConfig

from server.admin.tables import AdminAudit

APP_CONFIG = AppConfig(
    app_name="admin",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[AdminAudit],
    migration_dependencies=["server.accounts.piccolo_app"],
    commands=[],
)
