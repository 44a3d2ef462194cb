"""The campaigns domain's tables: campaigns, their workers, the payments ledger and the approved submissions."""

from piccolo.columns import JSONB, Boolean, ForeignKey, Integer, Text, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table

from server.accounts.tables import User
from server.campaigns.records import CampaignStatus
from server.tasks.tables import Round, Task


class Campaign(Table, tablename="campaigns"):
    task = ForeignKey(Task, index=True)
    round = ForeignKey(Round, index=True)
    platform = Varchar(length=16)
    title = Varchar(length=200)
    status = Varchar(length=8, default=CampaignStatus.DRAFT, choices=CampaignStatus)
    code = Varchar(length=32, unique=True)
    consent_md = Text(default="")
    instructions_md = Text(default="")
    quiz = JSONB(null=True, default=None)
    quotas = JSONB(default="{}")
    currency = Varchar(length=3, default="USD")
    base_cents = Integer(default=0)
    fooling_bonus_cents = Integer(default=0)
    agree_bonus_cents = Integer(default=0)
    bonus_cap_cents = Integer(null=True, default=None)
    completion_code = Varchar(length=64)
    failure_code = Varchar(length=64)
    completion_redirect = Text(null=True, default=None)
    created_by = ForeignKey(User)
    created_at = Timestamptz(default=TimestamptzNow())


class CampaignWorker(Table, tablename="campaign_workers"):
    campaign = ForeignKey(Campaign)
    user = ForeignKey(User, unique=True)
    external_key = Varchar(length=64, secret=True)
    entry = JSONB(default="{}")
    consented_at = Timestamptz(null=True, default=None)
    quiz_attempts = Integer(default=0)
    quiz_passed = Boolean(default=False)
    screened_out = Boolean(default=False)
    finished_at = Timestamptz(null=True, default=None)
    created_at = Timestamptz(default=TimestamptzNow())


class LedgerLine(Table, tablename="campaign_ledger_lines"):
    campaign = ForeignKey(Campaign)
    key = Varchar(length=80)
    worker = ForeignKey(User, index=True)
    kind = Varchar(length=16)
    amount_cents = Integer()
    reason = Text(default="")
    status = Varchar(length=8)
    exported_at = Timestamptz(null=True, default=None)


class ApprovedSubmission(Table, tablename="campaign_approved"):
    """A worker the platform approved (owner's import). The raw platform id is kept here only, for the payout file."""

    campaign = ForeignKey(Campaign)
    worker = ForeignKey(User)
    external_id = Varchar(length=128, secret=True)
    assignment_id = Varchar(length=64, null=True, default=None)
    submission_id = Varchar(length=64, null=True, default=None)
