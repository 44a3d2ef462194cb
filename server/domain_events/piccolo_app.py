import os

from piccolo.conf.apps import AppConfig

from server.domain_events.tables import DomainEventRow

APP_CONFIG = AppConfig(
    app_name="domain_events",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[DomainEventRow],
    migration_dependencies=[],
    commands=[],
)
