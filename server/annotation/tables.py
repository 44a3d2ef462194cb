from piccolo.columns import JSONB, UUID, Boolean, Float, ForeignKey, Timestamptz, Varchar, Text
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.constraints import Unique
from piccolo.table import Table

from server.accounts.tables import User
from server.tasks.tables import Context, Round


class Example(Table, tablename="examples"):
    # Client-generated: a retried submission finds the first one instead of writing twice.
    client_id = UUID(unique=True)
    round = ForeignKey(Round, index=True)
    context = ForeignKey(Context, index=True)
    user = ForeignKey(User, index=True)
    input = JSONB()
    model_output = JSONB(null=True, default=None)
    model_name = Varchar(length=200, default="")
    model_version = Varchar(length=32, default="")
    fooled = Boolean(null=True, default=None)  # null while the model has not answered
    # pending (model not answered) | open (awaiting validation) | validated | rejected | flagged
    status = Varchar(length=16, default="pending", index=True)
    retracted = Boolean(default=False)
    flagged = Boolean(default=False)
    explanation = Text(default="")
    time_spent_ms = Float(null=True, default=None)
    created_at = Timestamptz(default=TimestamptzNow())


class Validation(Table, tablename="validations"):
    example = ForeignKey(Example, index=True)
    user = ForeignKey(User, index=True)
    label = Varchar(length=16)  # correct | incorrect | flagged
    mode = Varchar(length=8, default="user")  # user | owner
    note = Text(default="")
    created_at = Timestamptz(default=TimestamptzNow())
    validations_unique_example_user = Unique(["example", "user"])
