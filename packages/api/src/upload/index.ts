export * from './item.ts';
export * from './engine.ts';
