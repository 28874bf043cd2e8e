export { MAIN_CONTENT_ID, Screen, SCREEN_PADDING_PX, type ScreenProps } from './Screen';
export { ScreenFrameContext } from './screen-frame-context';
