export { StatusBanner } from './StatusBanner';
export type { StatusBannerProps, StatusBannerVariant } from './StatusBanner';
