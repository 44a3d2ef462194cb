import os

from piccolo.conf.apps import AppConfig

from server.generation.endpoints.tables import GenerationUsage, LlmEndpoint

APP_CONFIG = AppConfig(
    app_name="llm_endpoints",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[LlmEndpoint, GenerationUsage],
    migration_dependencies=["server.accounts.piccolo_app", "server.tasks.piccolo_app"],
    commands=[],
)
