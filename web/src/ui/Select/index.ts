export { Select, SELECT_PLACEHOLDER } from './Select';
export type { SelectOption, SelectProps } from './Select';
