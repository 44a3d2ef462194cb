import os

from piccolo.conf.apps import AppConfig

from server.notifications.tables import Notification, NotificationPreference

APP_CONFIG = AppConfig(
    app_name="notifications",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[Notification, NotificationPreference],
    migration_dependencies=["server.accounts.piccolo_app"],
    commands=[],
)
