export { refusals } from './refusals';
export { validation } from './validation';
export { api } from './api';
export { bot } from './bot';
