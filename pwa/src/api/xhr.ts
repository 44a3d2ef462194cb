/**
 * POST a body with XMLHttpRequest, for upload progress events (fetch reports none). Answers like fetch: a Response
 * once the server answered, a TypeError when no answer came, an AbortError when `signal` aborted it.
 */
export function postWithProgress(
  url: string,
  body: FormData,
  headers: Record<string, string>,
  signal: AbortSignal,
  onProgress: (sent: number, total: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const aborted = () => reject(new DOMException("The request was aborted.", "AbortError"));
    if (signal.aborted) return aborted();
    xhr.open("POST", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : 0);
    xhr.onload = () => {
      if (xhr.status < 200) return reject(new TypeError("No answer."));
      const type = xhr.getResponseHeader("Content-Type") ?? "application/json";
      resolve(new Response(xhr.responseText, { status: xhr.status, headers: { "Content-Type": type } }));
    };
    xhr.onerror = () => reject(new TypeError("No answer."));
    xhr.onabort = aborted;
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
