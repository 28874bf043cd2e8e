export { PageLoader } from './PageLoader.tsx';
