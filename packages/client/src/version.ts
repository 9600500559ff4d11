/** This package's version, sent in the default `User-Agent`. */
export const CLIENT_VERSION = '1.0.0';
