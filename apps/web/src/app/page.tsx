import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';

// A session cookie is only a hint: if it has expired, /teams gets a 401 from the api and the api
// client sends the browser to /login.
export default async function Home() {
  const jar = await cookies();
  redirect(jar.has('h_session') ? '/teams' : '/login');
}
