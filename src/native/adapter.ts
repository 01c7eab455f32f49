// dist/native-adapter.js: native hosts inject this at document start, after the launch snapshot. See PROTOCOL.md.
import { installNativePort } from './installNativePort';

installNativePort();
