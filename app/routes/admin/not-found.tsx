import { data } from 'react-router';

/** Unknown /admin paths are errors (shown by the root fallback), never the public home page. */
export async function clientLoader() {
  throw data(null, { status: 404, statusText: 'Not Found' });
}

export default function AdminNotFound() {
  return null;
}
