import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { activityPathFor, type AuditEntityType } from '#shared/audit.ts';
import { sessionQuery } from '#client/features/auth/index.ts';

/** 'View activity' on a record's screen: the activity log filtered to it. Admins only (the log is a settings screen). */
export function ViewActivityLink({ entityType, entityId, className = '' }: { entityType: AuditEntityType; entityId: string; className?: string }) {
  const session = useQuery(sessionQuery);
  if (session.data?.user.role !== 'admin') return null;
  return (
    <Link to={activityPathFor(entityType, entityId)} className={`text-sm font-semibold text-brand-700 underline hover:text-brand-800 ${className}`}>
      View activity
    </Link>
  );
}
