export * from './common';
export * from './auth';
export * from './users';
export * from './workshops';
export * from './addresses';
export * from './schedule';
export * from './records';
export * from './settings';
