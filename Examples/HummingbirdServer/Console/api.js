// The console's one way to the server: /admin/api/{KeyCatAPI path}, the session in HttpOnly
// cookies the page never sees, and the double-submit CSRF token echoed on every change.

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)keycat_admin_csrf=([^;]+)/);
  return match ? match[1] : '';
}

let onSignedOut = () => {};
export function whenSignedOut(handler) { onSignedOut = handler; }

/** Calls the console's server; throws an APIError with the API's own code and message. */
export async function call(method, url, body, { idempotencyKey } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin', cache: 'no-store' });
  } catch (error) {
    throw new APIError(0, 'network', error.message || 'network error');
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { /* not JSON: reported below */ }
  if (!response.ok) {
    const error = new APIError(response.status, json?.code ?? 'http_' + response.status,
      json?.message ?? `${response.status} ${response.statusText}`);
    if (response.status === 401 && !url.endsWith('/admin/session')) onSignedOut(error);
    throw error;
  }
  return json;
}

export const api = (method, path, body, options) => call(method, '/admin/api' + path, body, options);

/** A fresh Idempotency-Key for one intended action (kept by the form until it succeeds). */
export const newKey = () => crypto.randomUUID();
