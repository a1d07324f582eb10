// The bare loop the export is compared with: every page of GET /contacts (50 records a request)
// with fetch, each body read and dropped; only the first page is parsed (for its total).
//
//   node bench/fetch-pages.mjs BASE_URL API_KEY [QUERY]

const [baseUrl, apiKey, query = ''] = process.argv.slice(2);
const headers = { 'x-service-api-key': apiKey };
const page = (offset) => fetch(`${baseUrl}/contacts?${query}${query ? '&' : ''}limit=50&offset=${offset}`, { headers });

const first = await (await page(0)).json();
for (let offset = 50; offset < first.data.total; offset += 50) await (await page(offset)).arrayBuffer();
