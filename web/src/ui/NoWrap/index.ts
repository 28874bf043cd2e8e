export { NoWrap } from './NoWrap.tsx';
