export { Screen, SCREEN_PADDING_PX, type ScreenProps } from './Screen';
export { ScreenFrameContext } from './screen-frame-context';
