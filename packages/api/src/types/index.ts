export * from './pfs.ts';
export * from './version.ts';
export * from './admin.ts';
export * from './metadata.ts';
export * from './pps.ts';
