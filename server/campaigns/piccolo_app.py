import os

from piccolo.conf.apps import AppConfig

from server.campaigns.tables import ApprovedSubmission, Campaign, CampaignWorker, LedgerLine

APP_CONFIG = AppConfig(
    app_name="campaigns",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[Campaign, CampaignWorker, LedgerLine, ApprovedSubmission],
    migration_dependencies=["server.accounts.piccolo_app", "server.tasks.piccolo_app", "server.annotation.piccolo_app"],
    commands=[],
)
