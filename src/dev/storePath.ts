/** The path packages are uploaded to (`svc publish`, the messenger's settings). @public */
export const STORE_PATH = '/__svc/store/packages';
