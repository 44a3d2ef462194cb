from tests.conftest import seed_builtin_tasks


def test_health_reports_every_service(stack, api):
    body = api.http.get("/health").json()
    assert body["status"] == "ok"
    assert set(body["services"]) == {"database", "redis", "triton", "triton_submissions"}
    assert all(service["ok"] for service in body["services"].values())
    assert api.http.get("/health/live").json() == {"status": "alive"}
    ready = api.http.get("/health/ready")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"


def test_builtin_tasks_are_listed(api):
    seed_builtin_tasks()
    data = api("{ tasks { edges { node { code name currentRound { number } } } } }")
    codes = [edge["node"]["code"] for edge in data["tasks"]["edges"]]
    assert codes == ["sentiment", "nli", "hate_speech", "qa"]
    assert all(edge["node"]["currentRound"]["number"] == 1 for edge in data["tasks"]["edges"])
