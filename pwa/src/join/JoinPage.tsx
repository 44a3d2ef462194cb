/**
 * /#/join/<code>?<platform params>: a crowd worker arrives without a password. joinCampaign (with this browser's id,
 * kept per code so a retry resumes the same account) answers a session token, stored like a sign-in; then the stage
 * decides the page: consent → quiz → the task with the quota visible and Finish → the completion code and the way
 * back to the platform. An MTurk preview shows the campaign and "Accept the HIT to start", creating nothing.
 * Once joined, study mode (study.ts): only the campaign is shown. A separate chunk (routes.tsx loads it lazily).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, NetworkError, request } from "../api/client";
import { ME } from "../api/documents";
import { closeLive } from "../api/ws";
import { session } from "../auth/session";
import { newClientId } from "../lib/uuid";
import type { PageProps } from "../routes";
import { CompletionView } from "./CompletionView";
import { CAMPAIGN_BY_CODE, JOIN_CAMPAIGN } from "./documents";
import { clientIdKey, isMturkPreview, joinParams, refusalText, viewOfState, wayBack } from "./flow";
import { ConsentView, PreviewView, QuizView } from "./StageViews";
import { JOIN_TEXT } from "./text";
import type { CampaignPage, CampaignWorkerState, CompletionInfo, CrowdPlatform } from "./types";
import { enterStudy } from "./study";
import { WorkView } from "./WorkView";
import { fieldErrors } from "../api/types";

type Phase =
  | { kind: "loading" }
  | { kind: "error"; message: string; canRetry: boolean; platform: CrowdPlatform | null }
  | { kind: "preview"; campaign: CampaignPage }
  | { kind: "worker"; state: CampaignWorkerState; completion: CompletionInfo | null };

function storedClientId(code: string): string {
  const key = clientIdKey(code);
  try {
    const existing = localStorage.getItem(key);
    if (existing) return existing;
    const fresh = newClientId();
    localStorage.setItem(key, fresh);
    return fresh;
  } catch {
    return newClientId();
  }
}

const stateKey = (code: string) => `${clientIdKey(code)}.state`;

/** The last state seen, so that a reload while offline still opens the task (the outbox keeps the examples). */
function savedState(code: string): CampaignWorkerState | null {
  try {
    const raw = localStorage.getItem(stateKey(code));
    return raw ? (JSON.parse(raw) as CampaignWorkerState) : null;
  } catch {
    return null;
  }
}

/** The campaign's platform for a refused link (its public page), or null when the code names no campaign. */
async function campaignPlatform(code: string): Promise<CrowdPlatform | null> {
  try {
    return (await request(CAMPAIGN_BY_CODE, { code }, { token: null })).campaignByCode?.platform ?? null;
  } catch {
    return null;
  }
}

const PLATFORM_NAMES = { PROLIFIC: "Prolific", MTURK: "MTurk" } as const;

/** A link that does not work: the reason once, then what to do: back to the platform, or contact the researcher. */
function BadLinkView({ phase, query, onRetry }: {
  phase: { message: string; canRetry: boolean; platform: CrowdPlatform | null };
  query: URLSearchParams;
  onRetry: () => void;
}) {
  const back = wayBack(phase.platform, query);
  const name = back.platform ? PLATFORM_NAMES[back.platform] : null;
  return (
    <section class="join card narrow" aria-labelledby="page-title" data-testid="bad-link">
      <h1 id="page-title" tabIndex={-1}>{JOIN_TEXT.badLink}</h1>
      <p role="alert" class="error" data-testid="join-error">{phase.message}</p>
      {phase.canRetry && <button type="button" onClick={onRetry}>{JOIN_TEXT.retry}</button>}
      <h2>{JOIN_TEXT.nextTitle}</h2>
      <ul class="join-next" data-testid="join-next">
        <li>
          {name ? JOIN_TEXT.backToPlatform(name) : JOIN_TEXT.backNoPlatform}
          {name && back.url && (
            <>
              {" "}<a href={back.url} rel="noopener noreferrer" data-testid="join-back">{JOIN_TEXT.backLink(name)}</a>
            </>
          )}
        </li>
        <li>{JOIN_TEXT.contactResearcher(name)}</li>
      </ul>
    </section>
  );
}

export function JoinPage({ params, query }: PageProps) {
  const code = params.code;
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const started = useRef(false);

  function show(state: CampaignWorkerState, completion: CompletionInfo | null = null) {
    try {
      localStorage.setItem(stateKey(code), JSON.stringify(state));
    } catch {
      /* private mode: the state is simply asked again next time */
    }
    setPhase({ kind: "worker", state, completion });
    // From now on only the campaign is shown, for its account (study.ts).
    const username = session.get()?.user.username;
    const search = query.toString();
    if (username) enterStudy({ path: `/join/${code}${search ? `?${search}` : ""}`, username });
  }

  async function join() {
    setPhase({ kind: "loading" });
    const preview = isMturkPreview(query);
    try {
      const { joinCampaign: result } = await request(
        JOIN_CAMPAIGN,
        { input: { code, params: joinParams(query), clientId: storedClientId(code) } },
        { token: null },
      );
      if (result.__typename === "CampaignPreview") {
        setPhase({ kind: "preview", campaign: result.campaign });
      } else if (result.__typename === "CampaignJoined") {
        const { me } = await request(ME, {}, { token: result.token });
        if (!me) throw new Error(JOIN_TEXT.badLink);
        closeLive();
        session.set({ token: result.token, user: me, expired: false });
        show(result.state);
      } else {
        setPhase({
          kind: "error",
          message: refusalText(result.message, fieldErrors(result)),
          canRetry: result.__typename === "RateLimitedError",
          platform: await campaignPlatform(code),
        });
      }
    } catch (error) {
      const saved = preview ? null : savedState(code);
      if (error instanceof NetworkError && saved && session.get()) show(saved);
      else setPhase({ kind: "error", message: error instanceof NetworkError ? JOIN_TEXT.offlineJoin : describeError(error), canRetry: true, platform: null });
    }
  }

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void join();
  }, []);

  // A new stage replaces the page: move focus to its heading, so screen readers announce it.
  const viewKey = phase.kind === "worker" ? viewOfState(phase.state) : phase.kind;
  const lastView = useRef(viewKey);
  useEffect(() => {
    if (lastView.current === viewKey) return;
    lastView.current = viewKey;
    requestAnimationFrame(() => document.getElementById("page-title")?.focus());
  }, [viewKey]);

  if (phase.kind === "loading") {
    return (
      <section class="join" aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>{JOIN_TEXT.joining}</h1>
        <p role="status" aria-live="polite">{JOIN_TEXT.joining}</p>
      </section>
    );
  }
  if (phase.kind === "error") return <BadLinkView phase={phase} query={query} onRetry={() => void join()} />;
  if (phase.kind === "preview") return <PreviewView campaign={phase.campaign} />;

  const { state } = phase;
  const view = viewOfState(state);
  if (view === "consent") return <ConsentView state={state} onState={(s) => show(s)} />;
  if (view === "quiz") return <QuizView state={state} onState={show} />;
  if (view === "work") return <WorkView state={state} onState={show} />;
  return <CompletionView state={state} completion={phase.completion} onState={show} />;
}
