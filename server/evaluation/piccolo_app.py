import os

from piccolo.conf.apps import AppConfig

from server.evaluation.tables import ContaminationReport, Dataset, DatasetExample, LeaderboardConfig, Model, Score

APP_CONFIG = AppConfig(
    app_name="evaluation",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[Model, Dataset, DatasetExample, Score, LeaderboardConfig, ContaminationReport],
    migration_dependencies=["server.accounts.piccolo_app", "server.tasks.piccolo_app"],
    commands=[],
)
