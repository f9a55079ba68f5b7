/** All calls the mini-app makes. Types come from the shared contract only. */
import type {
  ForgetResult,
  PersonalDataExport,
  PrivacyPublic,
  RecordCreate,
  RecordView,
  SchedulesOpen,
  SeatGiftAccept,
  SeatGiftLink,
  SeatGiftView,
  DateOffers,
} from '../../contract';
import { errorMessage, parseBody } from '../../contract/http';
import { rawInitData } from './tg';

export const API_BASE = '/api/v1';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

function authHeader(): string | undefined {
  const initData = rawInitData();
  if (initData) return `tma ${initData}`;
  try {
    const token = localStorage.getItem('access_token');
    if (token) return `Bearer ${token}`;
  } catch {
    /* no storage */
  }
  return undefined;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const auth = authHeader();
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Нет соединения с сервером. Проверьте интернет и попробуйте ещё раз.');
  }
  const data = parseBody(await res.text());
  if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, res.statusText, data));
  return data as T;
}

export const api = {
  publicSchedule: () => request<SchedulesOpen>('GET', '/schedule/public'),
  createRecord: (body: RecordCreate) => request<RecordView>('POST', '/records/', body),
  record: (id: number | string) => request<RecordView>('GET', `/records/${id}`),
  updatePeople: (id: number, people_count: number) => request<RecordView>('PUT', `/records/${id}`, { people_count }),
  cancel: (id: number, cancel_reason: string) => request<RecordView>('PUT', `/records/cancel/${id}`, { cancel_reason }),
  restore: (id: number) => request<RecordView>('PUT', `/records/restore/${id}`),
  privacy: () => request<PrivacyPublic>('GET', '/privacy'),
  myData: () => request<PersonalDataExport>('GET', '/me/data'),
  forgetMe: () => request<ForgetResult>('DELETE', '/me/data'),
  gift: (id: number) => request<SeatGiftLink>('POST', `/records/${id}/gift`),
  giftView: (token: string) => request<SeatGiftView>('GET', `/gifts/${encodeURIComponent(token)}`),
  acceptGift: (token: string, body: SeatGiftAccept) =>
    request<RecordView>('POST', `/gifts/${encodeURIComponent(token)}/accept`, body),
  dateOffers: () => request<DateOffers>('GET', '/date-subscriptions/'),
  subscribeDates: (workshopId: number) => request<{ subscribed: boolean }>('PUT', `/date-subscriptions/${workshopId}`),
};

export const errorText = (err: unknown) =>
  err instanceof ApiError ? err.detail : err instanceof Error ? err.message : String(err);
