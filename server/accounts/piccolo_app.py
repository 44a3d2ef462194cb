import os

from piccolo.conf.apps import AppConfig

from server.accounts.tables import AccountToken, ApiToken, User

APP_CONFIG = AppConfig(
    app_name="accounts",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[User, ApiToken, AccountToken],
    migration_dependencies=[],
    commands=[],
)
