// Imported first by main.ts: React and the libraries read NODE_ENV when they load, and the site's
// server renders pages with their production builds unless told otherwise (no development
// warnings or stack traces in the HTML it sends, and about three times faster).
process.env.NODE_ENV ??= 'production';
