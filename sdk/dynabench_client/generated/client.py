from collections.abc import AsyncIterator
from typing import Any, Optional, Union

from .add_contexts import AddContexts
from .async_base_client import AsyncBaseClient
from .base_model import UNSET, UnsetType, Upload
from .battle import Battle
from .battle_leaderboard import BattleLeaderboard
from .cancel_training_run import CancelTrainingRun
from .conversation import Conversation
from .create_api_token import CreateApiToken
from .create_example import CreateExample
from .enums import ApiTokenScope, ExportFormat, TrainingProfile
from .export_round import ExportRound
from .input_types import (
    AddContextsInput,
    CreateExampleInput,
    DatasetWeightInput,
    MetricWeightInput,
    ModelCardInput,
    SendMessageInput,
    SetRoundTargetsInput,
)
from .leaderboard import Leaderboard
from .log_in import LogIn
from .me import Me
from .model_state import ModelState
from .model_updated import ModelUpdated
from .next_context import NextContext
from .override_training_gate import OverrideTrainingGate
from .publish_model import PublishModel
from .reply_stream import ReplyStream
from .round_contexts import RoundContexts
from .round_state import RoundState
from .round_stats import RoundStats
from .send_message import SendMessage
from .set_round_targets import SetRoundTargets
from .submit_examples import SubmitExamples
from .task_rounds import TaskRounds
from .tasks import Tasks
from .train_target_model import TrainTargetModel
from .training_run_state import TrainingRunState
from .training_run_updated import TrainingRunUpdated
from .upload_model import UploadModel


def gql(q: str) -> str:
    return q


class GeneratedClient(AsyncBaseClient):
    async def log_in(self, username: str, password: str, **kwargs: Any) -> LogIn:
        query = gql("""
            mutation LogIn($username: String!, $password: String!) {
              logIn(input: {username: $username, password: $password}) {
                __typename
                ... on AuthPayload {
                  token
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }
            """)
        variables: dict[str, object] = {"username": username, "password": password}
        response = await self.execute(query=query, operation_name="LogIn", variables=variables, **kwargs)
        data = self.get_data(response)
        return LogIn.model_validate(data)

    async def create_api_token(self, name: str, scopes: list[ApiTokenScope], **kwargs: Any) -> CreateApiToken:
        query = gql("""
            mutation CreateApiToken($name: String!, $scopes: [ApiTokenScope!]!) {
              createApiToken(input: {name: $name, scopes: $scopes}) {
                __typename
                ... on ApiTokenCreated {
                  token
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }
            """)
        variables: dict[str, object] = {"name": name, "scopes": scopes}
        response = await self.execute(query=query, operation_name="CreateApiToken", variables=variables, **kwargs)
        data = self.get_data(response)
        return CreateApiToken.model_validate(data)

    async def send_message(self, input: SendMessageInput, **kwargs: Any) -> SendMessage:
        query = gql("""
            mutation SendMessage($input: SendMessageInput!) {
              sendMessage(input: $input) {
                __typename
                ... on MessageSent {
                  duplicate
                  conversation {
                    id
                    messagesLeft
                  }
                  turn {
                    id
                  }
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }
            """)
        variables: dict[str, object] = {"input": input}
        response = await self.execute(query=query, operation_name="SendMessage", variables=variables, **kwargs)
        data = self.get_data(response)
        return SendMessage.model_validate(data)

    async def reply_stream(self, turn_id: str, **kwargs: Any) -> AsyncIterator[ReplyStream]:
        query = gql("""
            subscription ReplyStream($turnId: ID!) {
              replyStream(turnId: $turnId) {
                turnId
                text
                done
                status
                error
                judgeScore
              }
            }
            """)
        variables: dict[str, object] = {"turnId": turn_id}
        async for data in self.execute_ws(query=query, operation_name="ReplyStream", variables=variables, **kwargs):
            yield ReplyStream.model_validate(data)

    async def conversation(self, id: str, **kwargs: Any) -> Conversation:
        query = gql("""
            query Conversation($id: ID!) {
              conversation(id: $id) {
                id
                targetModel
                messagesLeft
                turns {
                  id
                  position
                  message
                  reply
                  status
                  error
                  modelName
                }
              }
            }
            """)
        variables: dict[str, object] = {"id": id}
        response = await self.execute(query=query, operation_name="Conversation", variables=variables, **kwargs)
        data = self.get_data(response)
        return Conversation.model_validate(data)

    async def battle_leaderboard(
        self,
        task_code: str,
        round_id: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> BattleLeaderboard:
        query = gql("""
            query BattleLeaderboard($taskCode: String!, $roundId: ID) {
              battleLeaderboard(taskCode: $taskCode, roundId: $roundId) {
                models {
                  name
                  rating
                  lower
                  upper
                  rank
                  stability
                  topShare
                  battles
                  wins
                  losses
                  ties
                  bothBad
                }
                winRate
                votes
                ballots
                countedBallots
                flaggedVoters
                pausedVoters
                repeats
                positionBias {
                  sides
                  label
                  share
                  lower
                  upper
                  chance
                }
              }
            }
            """)
        variables: dict[str, object] = {"taskCode": task_code, "roundId": round_id}
        response = await self.execute(
            query=query,
            operation_name="BattleLeaderboard",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return BattleLeaderboard.model_validate(data)

    async def battle(self, id: str, **kwargs: Any) -> Battle:
        query = gql("""
            query Battle($id: ID!) {
              battle(id: $id) {
                id
                prompt
                votable
                vote {
                  choice
                  createdAt
                }
                sides {
                  label
                  reply
                  status
                  modelName
                  modelVersion
                  rating
                }
              }
            }
            """)
        variables: dict[str, object] = {"id": id}
        response = await self.execute(query=query, operation_name="Battle", variables=variables, **kwargs)
        data = self.get_data(response)
        return Battle.model_validate(data)

    async def upload_model(
        self,
        task_code: str,
        name: str,
        archive: Upload,
        anonymous: bool,
        card: Union[Optional[ModelCardInput], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> UploadModel:
        query = gql("""
            mutation UploadModel($taskCode: String!, $name: String!, $archive: Upload!, $card: ModelCardInput, $anonymous: Boolean!) {
              uploadModel(
                taskCode: $taskCode
                name: $name
                archive: $archive
                card: $card
                anonymous: $anonymous
              ) {
                __typename
                ... on ModelUploaded {
                  model {
                    ...ModelInfo
                  }
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }

            fragment ModelInfo on Model {
              id
              name
              status
              published
              createdAt
              task {
                code
              }
              statusLog {
                at
                status
                message
              }
              scores {
                ...ScoreInfo
              }
            }

            fragment ScoreInfo on ScoreRow {
              dataset {
                id
                name
                weight
              }
              perf
              perfByTag
              throughput
              memoryGb
              robustness
              fairness
            }
            """)
        variables: dict[str, object] = {
            "taskCode": task_code,
            "name": name,
            "archive": archive,
            "card": card,
            "anonymous": anonymous,
        }
        response = await self.execute(query=query, operation_name="UploadModel", variables=variables, **kwargs)
        data = self.get_data(response)
        return UploadModel.model_validate(data)

    async def publish_model(self, model_id: str, published: bool, **kwargs: Any) -> PublishModel:
        query = gql("""
            mutation PublishModel($modelId: ID!, $published: Boolean!) {
              publishModel(modelId: $modelId, published: $published) {
                __typename
                ... on ModelChanged {
                  model {
                    ...ModelInfo
                  }
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }

            fragment ModelInfo on Model {
              id
              name
              status
              published
              createdAt
              task {
                code
              }
              statusLog {
                at
                status
                message
              }
              scores {
                ...ScoreInfo
              }
            }

            fragment ScoreInfo on ScoreRow {
              dataset {
                id
                name
                weight
              }
              perf
              perfByTag
              throughput
              memoryGb
              robustness
              fairness
            }
            """)
        variables: dict[str, object] = {"modelId": model_id, "published": published}
        response = await self.execute(query=query, operation_name="PublishModel", variables=variables, **kwargs)
        data = self.get_data(response)
        return PublishModel.model_validate(data)

    async def model_state(self, model_id: str, **kwargs: Any) -> ModelState:
        query = gql("""
            query ModelState($modelId: ID!) {
              node(id: $modelId) {
                __typename
                ... on Model {
                  ...ModelInfo
                }
              }
            }

            fragment ModelInfo on Model {
              id
              name
              status
              published
              createdAt
              task {
                code
              }
              statusLog {
                at
                status
                message
              }
              scores {
                ...ScoreInfo
              }
            }

            fragment ScoreInfo on ScoreRow {
              dataset {
                id
                name
                weight
              }
              perf
              perfByTag
              throughput
              memoryGb
              robustness
              fairness
            }
            """)
        variables: dict[str, object] = {"modelId": model_id}
        response = await self.execute(query=query, operation_name="ModelState", variables=variables, **kwargs)
        data = self.get_data(response)
        return ModelState.model_validate(data)

    async def model_updated(self, model_id: str, **kwargs: Any) -> AsyncIterator[ModelUpdated]:
        query = gql("""
            subscription ModelUpdated($modelId: ID!) {
              modelUpdated(modelId: $modelId) {
                ...ModelInfo
              }
            }

            fragment ModelInfo on Model {
              id
              name
              status
              published
              createdAt
              task {
                code
              }
              statusLog {
                at
                status
                message
              }
              scores {
                ...ScoreInfo
              }
            }

            fragment ScoreInfo on ScoreRow {
              dataset {
                id
                name
                weight
              }
              perf
              perfByTag
              throughput
              memoryGb
              robustness
              fairness
            }
            """)
        variables: dict[str, object] = {"modelId": model_id}
        async for data in self.execute_ws(query=query, operation_name="ModelUpdated", variables=variables, **kwargs):
            yield ModelUpdated.model_validate(data)

    async def leaderboard(
        self,
        task_code: str,
        first: int,
        metric_weights: Union[Optional[list[MetricWeightInput]], UnsetType] = UNSET,
        dataset_weights: Union[Optional[list[DatasetWeightInput]], UnsetType] = UNSET,
        config_name: Union[Optional[str], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Leaderboard:
        query = gql("""
            query Leaderboard($taskCode: String!, $metricWeights: [MetricWeightInput!], $datasetWeights: [DatasetWeightInput!], $configName: String, $first: Int!, $after: String) {
              leaderboard(
                taskCode: $taskCode
                metricWeights: $metricWeights
                datasetWeights: $datasetWeights
                configName: $configName
                first: $first
                after: $after
              ) {
                edges {
                  node {
                    rank
                    dynascore
                    model {
                      id
                      name
                      owner {
                        username
                      }
                    }
                    metrics {
                      perf
                      throughput
                      memory
                      robustness
                      fairness
                    }
                    perDataset {
                      ...ScoreInfo
                    }
                  }
                }
                metricWeights {
                  metric
                  weight
                }
                totalCount
                pageInfo {
                  hasNextPage
                  endCursor
                }
              }
            }

            fragment ScoreInfo on ScoreRow {
              dataset {
                id
                name
                weight
              }
              perf
              perfByTag
              throughput
              memoryGb
              robustness
              fairness
            }
            """)
        variables: dict[str, object] = {
            "taskCode": task_code,
            "metricWeights": metric_weights,
            "datasetWeights": dataset_weights,
            "configName": config_name,
            "first": first,
            "after": after,
        }
        response = await self.execute(query=query, operation_name="Leaderboard", variables=variables, **kwargs)
        data = self.get_data(response)
        return Leaderboard.model_validate(data)

    async def export_round(self, round_id: str, format: ExportFormat, **kwargs: Any) -> ExportRound:
        query = gql("""
            mutation ExportRound($roundId: ID!, $format: ExportFormat!) {
              exportRound(roundId: $roundId, format: $format) {
                __typename
                ... on RoundExport {
                  url
                  format
                  expiresAt
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }
            """)
        variables: dict[str, object] = {"roundId": round_id, "format": format}
        response = await self.execute(query=query, operation_name="ExportRound", variables=variables, **kwargs)
        data = self.get_data(response)
        return ExportRound.model_validate(data)

    async def add_contexts(self, input: AddContextsInput, **kwargs: Any) -> AddContexts:
        query = gql("""
            mutation AddContexts($input: AddContextsInput!) {
              addContexts(input: $input) {
                __typename
                ... on ContextsAdded {
                  count
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }
            """)
        variables: dict[str, object] = {"input": input}
        response = await self.execute(query=query, operation_name="AddContexts", variables=variables, **kwargs)
        data = self.get_data(response)
        return AddContexts.model_validate(data)

    async def set_round_targets(self, input: SetRoundTargetsInput, **kwargs: Any) -> SetRoundTargets:
        query = gql("""
            mutation SetRoundTargets($input: SetRoundTargetsInput!) {
              setRoundTargets(input: $input) {
                __typename
                ... on RoundTargetsSet {
                  round {
                    ...RoundInfo
                  }
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }

            fragment RoundInfo on Round {
              id
              number
              startAt
              endAt
              totalCollected
              totalFooled
              totalValidated
              totalValidatedFooled
              mer
              vmer
              targetModels {
                name
                version
                modelId
              }
            }
            """)
        variables: dict[str, object] = {"input": input}
        response = await self.execute(query=query, operation_name="SetRoundTargets", variables=variables, **kwargs)
        data = self.get_data(response)
        return SetRoundTargets.model_validate(data)

    async def create_example(self, input: CreateExampleInput, **kwargs: Any) -> CreateExample:
        query = gql("""
            mutation CreateExample($input: CreateExampleInput!) {
              createExample(input: $input) {
                __typename
                ... on ExampleSubmitted {
                  ...SubmittedExample
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }

            fragment SubmittedExample on ExampleSubmitted {
              verdict
              message
              duplicate
              example {
                id
                clientId
                fooled
                status
                modelName
                modelVersion
              }
              predictions {
                modelName
                label
                answer
                confidence
              }
            }
            """)
        variables: dict[str, object] = {"input": input}
        response = await self.execute(query=query, operation_name="CreateExample", variables=variables, **kwargs)
        data = self.get_data(response)
        return CreateExample.model_validate(data)

    async def submit_examples(self, inputs: list[CreateExampleInput], **kwargs: Any) -> SubmitExamples:
        query = gql("""
            mutation SubmitExamples($inputs: [CreateExampleInput!]!) {
              submitExamples(inputs: $inputs) {
                __typename
                ... on ExampleSubmitted {
                  ...SubmittedExample
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }

            fragment SubmittedExample on ExampleSubmitted {
              verdict
              message
              duplicate
              example {
                id
                clientId
                fooled
                status
                modelName
                modelVersion
              }
              predictions {
                modelName
                label
                answer
                confidence
              }
            }
            """)
        variables: dict[str, object] = {"inputs": inputs}
        response = await self.execute(query=query, operation_name="SubmitExamples", variables=variables, **kwargs)
        data = self.get_data(response)
        return SubmitExamples.model_validate(data)

    async def me(self, **kwargs: Any) -> Me:
        query = gql("""
            query Me {
              me {
                id
                username
                isAdmin
              }
            }
            """)
        variables: dict[str, object] = {}
        response = await self.execute(query=query, operation_name="Me", variables=variables, **kwargs)
        data = self.get_data(response)
        return Me.model_validate(data)

    async def tasks(self, first: int, after: Union[Optional[str], UnsetType] = UNSET, **kwargs: Any) -> Tasks:
        query = gql("""
            query Tasks($first: Int!, $after: String) {
              tasks(first: $first, after: $after) {
                edges {
                  node {
                    id
                    code
                    name
                    mer
                    vmer
                    currentRound {
                      id
                      number
                    }
                  }
                }
                pageInfo {
                  hasNextPage
                  endCursor
                }
              }
            }
            """)
        variables: dict[str, object] = {"first": first, "after": after}
        response = await self.execute(query=query, operation_name="Tasks", variables=variables, **kwargs)
        data = self.get_data(response)
        return Tasks.model_validate(data)

    async def task_rounds(
        self,
        code: str,
        first: int,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> TaskRounds:
        query = gql("""
            query TaskRounds($code: String!, $first: Int!, $after: String) {
              task(code: $code) {
                rounds(first: $first, after: $after) {
                  edges {
                    node {
                      ...RoundInfo
                    }
                  }
                  pageInfo {
                    hasNextPage
                    endCursor
                  }
                }
              }
            }

            fragment RoundInfo on Round {
              id
              number
              startAt
              endAt
              totalCollected
              totalFooled
              totalValidated
              totalValidatedFooled
              mer
              vmer
              targetModels {
                name
                version
                modelId
              }
            }
            """)
        variables: dict[str, object] = {"code": code, "first": first, "after": after}
        response = await self.execute(query=query, operation_name="TaskRounds", variables=variables, **kwargs)
        data = self.get_data(response)
        return TaskRounds.model_validate(data)

    async def round_contexts(
        self,
        round_id: str,
        first: int,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> RoundContexts:
        query = gql("""
            query RoundContexts($roundId: ID!, $first: Int!, $after: String) {
              node(id: $roundId) {
                __typename
                ... on Round {
                  contexts(first: $first, after: $after) {
                    edges {
                      node {
                        id
                        fields
                        tag
                        totalUsed
                        totalFooled
                      }
                    }
                    pageInfo {
                      hasNextPage
                      endCursor
                    }
                  }
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "roundId": round_id,
            "first": first,
            "after": after,
        }
        response = await self.execute(query=query, operation_name="RoundContexts", variables=variables, **kwargs)
        data = self.get_data(response)
        return RoundContexts.model_validate(data)

    async def next_context(self, round_id: str, **kwargs: Any) -> NextContext:
        query = gql("""
            query NextContext($roundId: ID!) {
              nextContext(roundId: $roundId) {
                id
                fields
              }
            }
            """)
        variables: dict[str, object] = {"roundId": round_id}
        response = await self.execute(query=query, operation_name="NextContext", variables=variables, **kwargs)
        data = self.get_data(response)
        return NextContext.model_validate(data)

    async def round_state(self, round_id: str, **kwargs: Any) -> RoundState:
        query = gql("""
            query RoundState($roundId: ID!) {
              node(id: $roundId) {
                __typename
                ... on Round {
                  ...RoundInfo
                }
              }
            }

            fragment RoundInfo on Round {
              id
              number
              startAt
              endAt
              totalCollected
              totalFooled
              totalValidated
              totalValidatedFooled
              mer
              vmer
              targetModels {
                name
                version
                modelId
              }
            }
            """)
        variables: dict[str, object] = {"roundId": round_id}
        response = await self.execute(query=query, operation_name="RoundState", variables=variables, **kwargs)
        data = self.get_data(response)
        return RoundState.model_validate(data)

    async def round_stats(self, round_id: str, **kwargs: Any) -> AsyncIterator[RoundStats]:
        query = gql("""
            subscription RoundStats($roundId: ID!) {
              roundStats(roundId: $roundId) {
                ...RoundInfo
              }
            }

            fragment RoundInfo on Round {
              id
              number
              startAt
              endAt
              totalCollected
              totalFooled
              totalValidated
              totalValidatedFooled
              mer
              vmer
              targetModels {
                name
                version
                modelId
              }
            }
            """)
        variables: dict[str, object] = {"roundId": round_id}
        async for data in self.execute_ws(query=query, operation_name="RoundStats", variables=variables, **kwargs):
            yield RoundStats.model_validate(data)

    async def train_target_model(
        self,
        task_code: str,
        from_rounds: list[int],
        base_model: str,
        profile: TrainingProfile,
        scoring_tolerance: float,
        min_held_out: int,
        include_agreed: bool,
        **kwargs: Any,
    ) -> TrainTargetModel:
        query = gql("""
            mutation TrainTargetModel($taskCode: String!, $fromRounds: [Int!]!, $baseModel: String!, $profile: TrainingProfile!, $scoringTolerance: Float! = 0.01, $minHeldOut: Int! = 30, $includeAgreed: Boolean! = true) {
              trainTargetModel(
                taskCode: $taskCode
                fromRounds: $fromRounds
                baseModel: $baseModel
                profile: $profile
                scoringTolerance: $scoringTolerance
                minHeldOut: $minHeldOut
                includeAgreed: $includeAgreed
              ) {
                __typename
                ... on TrainingStarted {
                  run {
                    ...TrainingRunInfo
                  }
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }

            fragment TrainingRunInfo on TrainingRun {
              id
              status
              progress
              fromRounds
              baseModel
              profile
              modelName
              modelVersion
              nValidated
              includeAgreed
              metrics
              cancelRequested
              wallSeconds
              cpuSeconds
              overriddenBy
              overrideReason
              gate {
                passed
                currentVersion
                newVersion
                summary
                heldOut {
                  examples
                  minimum
                  enough
                  currentError
                  newError
                  difference
                  ciLow
                  ciHigh
                  mcnemarP
                  better
                }
                scoring {
                  dataset
                  currentError
                  newError
                  difference
                  tolerance
                  passed
                }
              }
              createdAt
              statusLog {
                at
                status
                message
              }
            }
            """)
        variables: dict[str, object] = {
            "taskCode": task_code,
            "fromRounds": from_rounds,
            "baseModel": base_model,
            "profile": profile,
            "scoringTolerance": scoring_tolerance,
            "minHeldOut": min_held_out,
            "includeAgreed": include_agreed,
        }
        response = await self.execute(
            query=query,
            operation_name="TrainTargetModel",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return TrainTargetModel.model_validate(data)

    async def cancel_training_run(self, run_id: str, **kwargs: Any) -> CancelTrainingRun:
        query = gql("""
            mutation CancelTrainingRun($runId: ID!) {
              cancelTrainingRun(runId: $runId) {
                __typename
                ... on TrainingRunCancelled {
                  run {
                    ...TrainingRunInfo
                  }
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }

            fragment TrainingRunInfo on TrainingRun {
              id
              status
              progress
              fromRounds
              baseModel
              profile
              modelName
              modelVersion
              nValidated
              includeAgreed
              metrics
              cancelRequested
              wallSeconds
              cpuSeconds
              overriddenBy
              overrideReason
              gate {
                passed
                currentVersion
                newVersion
                summary
                heldOut {
                  examples
                  minimum
                  enough
                  currentError
                  newError
                  difference
                  ciLow
                  ciHigh
                  mcnemarP
                  better
                }
                scoring {
                  dataset
                  currentError
                  newError
                  difference
                  tolerance
                  passed
                }
              }
              createdAt
              statusLog {
                at
                status
                message
              }
            }
            """)
        variables: dict[str, object] = {"runId": run_id}
        response = await self.execute(
            query=query,
            operation_name="CancelTrainingRun",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return CancelTrainingRun.model_validate(data)

    async def override_training_gate(self, run_id: str, reason: str, **kwargs: Any) -> OverrideTrainingGate:
        query = gql("""
            mutation OverrideTrainingGate($runId: ID!, $reason: String!) {
              overrideTrainingGate(runId: $runId, reason: $reason) {
                __typename
                ... on TrainingGateOverridden {
                  run {
                    ...TrainingRunInfo
                  }
                }
                ...ErrorInfo
              }
            }

            fragment ErrorInfo on Error {
              __typename
              code
              message
              ... on InputError {
                fields {
                  field
                  message
                }
              }
              ... on ArchiveRejectedError {
                reason
                entry
              }
              ... on RateLimitedError {
                retryAfterSeconds
              }
              ... on DuplicateExampleError {
                repeatsExampleId
                repeatsExcerpt
                own
                kind
                similarity
              }
            }

            fragment TrainingRunInfo on TrainingRun {
              id
              status
              progress
              fromRounds
              baseModel
              profile
              modelName
              modelVersion
              nValidated
              includeAgreed
              metrics
              cancelRequested
              wallSeconds
              cpuSeconds
              overriddenBy
              overrideReason
              gate {
                passed
                currentVersion
                newVersion
                summary
                heldOut {
                  examples
                  minimum
                  enough
                  currentError
                  newError
                  difference
                  ciLow
                  ciHigh
                  mcnemarP
                  better
                }
                scoring {
                  dataset
                  currentError
                  newError
                  difference
                  tolerance
                  passed
                }
              }
              createdAt
              statusLog {
                at
                status
                message
              }
            }
            """)
        variables: dict[str, object] = {"runId": run_id, "reason": reason}
        response = await self.execute(
            query=query,
            operation_name="OverrideTrainingGate",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return OverrideTrainingGate.model_validate(data)

    async def training_run_state(self, run_id: str, **kwargs: Any) -> TrainingRunState:
        query = gql("""
            query TrainingRunState($runId: ID!) {
              node(id: $runId) {
                __typename
                ... on TrainingRun {
                  ...TrainingRunInfo
                }
              }
            }

            fragment TrainingRunInfo on TrainingRun {
              id
              status
              progress
              fromRounds
              baseModel
              profile
              modelName
              modelVersion
              nValidated
              includeAgreed
              metrics
              cancelRequested
              wallSeconds
              cpuSeconds
              overriddenBy
              overrideReason
              gate {
                passed
                currentVersion
                newVersion
                summary
                heldOut {
                  examples
                  minimum
                  enough
                  currentError
                  newError
                  difference
                  ciLow
                  ciHigh
                  mcnemarP
                  better
                }
                scoring {
                  dataset
                  currentError
                  newError
                  difference
                  tolerance
                  passed
                }
              }
              createdAt
              statusLog {
                at
                status
                message
              }
            }
            """)
        variables: dict[str, object] = {"runId": run_id}
        response = await self.execute(
            query=query,
            operation_name="TrainingRunState",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return TrainingRunState.model_validate(data)

    async def training_run_updated(self, run_id: str, **kwargs: Any) -> AsyncIterator[TrainingRunUpdated]:
        query = gql("""
            subscription TrainingRunUpdated($runId: ID!) {
              trainingRunUpdated(runId: $runId) {
                ...TrainingRunInfo
              }
            }

            fragment TrainingRunInfo on TrainingRun {
              id
              status
              progress
              fromRounds
              baseModel
              profile
              modelName
              modelVersion
              nValidated
              includeAgreed
              metrics
              cancelRequested
              wallSeconds
              cpuSeconds
              overriddenBy
              overrideReason
              gate {
                passed
                currentVersion
                newVersion
                summary
                heldOut {
                  examples
                  minimum
                  enough
                  currentError
                  newError
                  difference
                  ciLow
                  ciHigh
                  mcnemarP
                  better
                }
                scoring {
                  dataset
                  currentError
                  newError
                  difference
                  tolerance
                  passed
                }
              }
              createdAt
              statusLog {
                at
                status
                message
              }
            }
            """)
        variables: dict[str, object] = {"runId": run_id}
        async for data in self.execute_ws(
            query=query,
            operation_name="TrainingRunUpdated",
            variables=variables,
            **kwargs,
        ):
            yield TrainingRunUpdated.model_validate(data)
