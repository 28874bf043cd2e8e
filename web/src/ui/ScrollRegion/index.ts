export { ScrollRegion } from './ScrollRegion.tsx';
