import { Link } from 'react-router';
import { company } from '#client/lib/company.ts';

export default function Home() {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 to-brand-700 px-4 py-20 text-white">
        <div className="mx-auto max-w-6xl">
          <h1 className="text-4xl font-extrabold tracking-tight md:text-5xl">Heating &amp; Cooling Services</h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-100">
            Installation, repair and maintenance for homes and businesses from Bluffton to Hilton Head Island.
          </p>
          <div className="mt-8 flex flex-wrap gap-4">
            <Link to="/estimate" className="rounded-md bg-accent-700 px-6 py-3 text-lg font-semibold text-white hover:bg-accent-800">
              FREE Estimate
            </Link>
            <Link to="/MaintenancePlan" className="rounded-md border-2 border-white px-6 py-3 text-lg font-semibold text-white hover:bg-white/10">
              {company.name} About
            </Link>
          </div>
        </div>
      </section>
      <section className="mx-auto max-w-6xl px-4 py-12">
        <p className="text-sm font-semibold tracking-widest text-accent-700">HEATING AND COOLING SERVICE IN THE LOW COUNTRY</p>
        <h2 className="mt-2 text-3xl font-bold">Welcome to {company.name}</h2>
        <p className="mt-4 max-w-3xl text-slate-700">
          Summers here are long and humid, and winters bring the occasional hard freeze. We keep Low Country homes and businesses
          comfortable all year, with honest advice, on-time technicians and a 24/7 emergency line at {company.emergencyPhone}.
        </p>
      </section>
      <section className="bg-slate-50 px-4 py-12">
        <div className="mx-auto max-w-6xl">
          <h2 className="text-3xl font-bold">Reach Out to a Trusted Home Expert in Bluffton</h2>
          <p className="mt-4 max-w-3xl text-slate-700">
            Call {company.phone} or request a free estimate online; we answer within 24 hours.
          </p>
        </div>
      </section>
    </>
  );
}
