export { refusals } from './refusals';
export { validation } from './validation';
export { api } from './api';
export { bot } from './bot';
export { app } from './app';
export { appCertificates } from './app-certificates';
