/**
 * HTTP error texts shared by the server (the default `detail` of an error) and both front ends
 * (what a toast says when a failed response carries no readable detail).
 * Plain TypeScript (no zod), so importing it adds nothing to a first load.
 */
export const HTTP_STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Validation Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** A response body: JSON when it parses, else the text itself; undefined when empty. */
export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function detailText(detail: unknown): string | null {
  if (typeof detail === 'string' && detail.trim()) return detail;
  if (Array.isArray(detail)) {
    const parts = detail
      .map((d) =>
        typeof d === 'string' ? d : d && typeof d === 'object' && 'msg' in d ? String((d as { msg: unknown }).msg) : '',
      )
      .filter(Boolean);
    if (parts.length) return parts.join('; ');
  }
  return null;
}

/** The readable message of a failed response: its `detail`, else the status's default text, else status and body. */
export function errorMessage(status: number, statusText: string, body: unknown): string {
  const detail =
    body && typeof body === 'object' && 'detail' in body ? detailText((body as { detail: unknown }).detail) : null;
  if (detail) return detail;
  if (HTTP_STATUS_TEXT[status]) return HTTP_STATUS_TEXT[status];
  const text =
    typeof body === 'string'
      ? body.slice(0, 200)
      : body === undefined || body === null
        ? ''
        : JSON.stringify(body).slice(0, 200);
  return `Ошибка ${status} ${statusText}${text ? `: ${text}` : ''}`.trim();
}
