import os

from piccolo.conf.apps import AppConfig

from server.accounts.tables import ApiToken, User

APP_CONFIG = AppConfig(
    app_name="accounts",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[User, ApiToken],
    migration_dependencies=[],
    commands=[],
)
