import { addressesApi } from './addresses';
import { auditApi } from './audit';
import { businessSettingsApi } from './business-settings';
import { certificatesApi } from './certificates';
import { customersApi } from './customers';
import { dateSubscriptionsApi } from './date-subscriptions';
import { fiscalApi } from './fiscal';
import { giftsApi } from './gifts';
import { languageApi } from './language';
import { loginApi } from './login';
import { paymentsApi } from './payments';
import { personalDataApi } from './personal-data';
import { promoCodesApi } from './promo-codes';
import { recordsApi } from './records';
import { scheduleApi } from './schedule';
import { settingsApi } from './settings';
import { shareApi } from './share';
import { statsApi } from './stats';
import { studioApi } from './studio';
import { usersApi } from './users';
import { utilsApi } from './utils';
import { workshopsApi } from './workshops';
import type { Endpoint } from './endpoint';

export type * from './endpoint';
export { TAGS, type Tag } from './tags';

/**
 * Every endpoint of the JSON API by group (the server's list; a front end imports only the groups
 * it calls, from their own files, to keep its bundle small).
 */
export const endpointGroups = {
  utils: utilsApi,
  login: loginApi,
  users: usersApi,
  workshops: workshopsApi,
  addresses: addressesApi,
  schedule: scheduleApi,
  dateSubscriptions: dateSubscriptionsApi,
  language: languageApi,
  records: recordsApi,
  gifts: giftsApi,
  share: shareApi,
  payments: paymentsApi,
  promoCodes: promoCodesApi,
  certificates: certificatesApi,
  fiscal: fiscalApi,
  settings: settingsApi,
  businessSettings: businessSettingsApi,
  personalData: personalDataApi,
  customers: customersApi,
  audit: auditApi,
  stats: statsApi,
  studio: studioApi,
};

export const allEndpoints: Endpoint[] = Object.values(endpointGroups).flatMap((group) => Object.values(group));

/** Each endpoint's OpenAPI operationId: its group and name, as the front ends call it (`recordsCancel` is `recordsApi.cancel`). */
export const operationIds = new Map<Endpoint, string>(
  Object.entries(endpointGroups).flatMap(([group, endpoints]) =>
    Object.entries(endpoints).map(([name, e]): [Endpoint, string] => [
      e,
      group + name[0].toUpperCase() + name.slice(1),
    ]),
  ),
);
