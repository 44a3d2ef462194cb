import os

from piccolo.conf.apps import AppConfig

from server.annotation.tables import (
    AdversaryRun,
    Battle,
    BattleContinuation,
    BattleSide,
    BattleVote,
    Conversation,
    ConversationTurn,
    Example,
    Suggestion,
    UserRoundStats,
    Validation,
    ValidationClaim,
)

APP_CONFIG = AppConfig(
    app_name="annotation",
    migrations_folder_path=os.path.join(os.path.dirname(__file__), "piccolo_migrations"),
    table_classes=[
        Example,
        Validation,
        UserRoundStats,
        ValidationClaim,
        Conversation,
        ConversationTurn,
        Battle,
        BattleSide,
        BattleVote,
        BattleContinuation,
        Suggestion,
        AdversaryRun,
    ],
    migration_dependencies=["server.accounts.piccolo_app", "server.tasks.piccolo_app"],
    commands=[],
)
