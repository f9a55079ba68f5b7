import { errorMessage, parseBody } from '../../contract/http';
import { API_BASE, ApiError, getToken, logout } from './api';

/**
 * Downloads a file the API serves to staff only: a plain link cannot send the Bearer token, so
 * the file is fetched, then saved from a blob under the name the server gives it.
 */
export async function downloadFile(apiUrl: string, fallbackName: string): Promise<void> {
  const token = getToken();
  const res = await fetch(`${API_BASE}${apiUrl}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    if (res.status === 401) logout();
    throw new ApiError(res.status, errorMessage(res.status, res.statusText, parseBody(await res.text())), null);
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click has started the download; the blob can go once the browser has taken it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
