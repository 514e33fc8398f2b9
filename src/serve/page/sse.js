// Server-Sent Events read from a fetch response's body, for tropa serve's page (app.js): fetch
// rather than EventSource, so that an error's JSON can be read and the stream can be aborted.

// Calls `onEvent(name, data)` for each event of the stream, its data parsed as JSON, until the
// stream ends or `signal` aborts it.
export async function readEvents(body, signal, onEvent) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done || signal.aborted) return;
    buffered += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      let name = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      // A comment (the keep-alive) has no data.
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}
