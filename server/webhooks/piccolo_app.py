import os

from piccolo.conf.apps import AppConfig

from server.webhooks.tables import Webhook, WebhookAttempt, WebhookDelivery

APP_CONFIG = AppConfig(
    app_name="webhooks",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[Webhook, WebhookDelivery, WebhookAttempt],
    migration_dependencies=["server.accounts.piccolo_app", "server.tasks.piccolo_app"],
    commands=[],
)
