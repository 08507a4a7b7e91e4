/**
 * Notices (raised by the server or plugins, and the outcomes of the operator's commands) in a strip of
 * their own above the view: they push the page down rather than cover it, name what they are about with
 * a link to it, and go away by themselves. None goes while the pointer or focus is on the strip.
 */
import { useEffect, useMemo, useState } from 'react';
import type { NoticeSubject } from '../store/types.js';
import { activeNotices, useConsole, type ConsoleNotice } from '../store/store.js';
import { useUi } from '../store/ui.js';
import { formatTime } from '../lib/format.js';
import { noticeTtl, SHOWN_NOTICES, shownNotices, subjectTarget } from '../lib/notices.js';
import { useNow } from '../lib/use-now.js';

function SubjectLink({ subject }: { subject: NoticeSubject }) {
  const ui = useUi();
  const open = (): void => {
    const target = subjectTarget(subject);
    if (target.connectionId) ui.openPlugin(target.connectionId);
    else if (target.callId) ui.openCall(target.callId);
    else ui.go(target.view);
    if (target.elicitationId) ui.answer(target.elicitationId);
    // Focus goes where the operator went, not back to the strip (which would keep notices from expiring).
    setTimeout(() => document.getElementById('view-panel')?.focus(), 0);
  };
  return (
    <button type="button" className="link notice-subject" onClick={open} data-testid="notice-subject">
      {subject.label}
    </button>
  );
}

function NoticeItem({ notice }: { notice: ConsoleNotice }) {
  const dismiss = useConsole((s) => s.dismiss);
  return (
    <li className={`notice notice-${notice.level}`} data-testid="notice" data-level={notice.level}>
      <span className="notice-text">
        <strong>{notice.title}</strong>
        {notice.subject && (
          <>
            {' · '}
            <SubjectLink subject={notice.subject} />
          </>
        )}
        {notice.message && <> — {notice.message}</>}
      </span>
      <span className="muted notice-time">{formatTime(notice.at)}</span>
      <button type="button" className="link" aria-label={`Dismiss: ${notice.title}`} onClick={() => dismiss(notice.id)}>
        ×
      </button>
    </li>
  );
}

/** After the pointer or focus leaves the strip, what was due stays this long more, so it can still be read. */
const GRACE_MS = 3_000;

function NoticeStrip({ notices }: { notices: ConsoleNotice[] }) {
  const dismiss = useConsole((s) => s.dismiss);
  const now = useNow(500);
  const [expanded, setExpanded] = useState(false);
  const [paused, setPaused] = useState(false);
  const [graceUntil, setGraceUntil] = useState(0);
  const due = paused ? [] : notices.filter((n) => now > Math.max(n.at + noticeTtl(n), graceUntil));
  useEffect(() => {
    for (const n of due) dismiss(n.id);
  });
  const { shown, hidden } = shownNotices(notices, expanded);
  // Once nothing would be hidden, the next burst starts collapsed again.
  useEffect(() => {
    if (expanded && notices.length <= SHOWN_NOTICES) setExpanded(false);
  }, [expanded, notices.length]);
  const resume = (): void => {
    setPaused(false);
    setGraceUntil(Date.now() + GRACE_MS);
  };
  return (
    <section
      className={`notices${expanded ? ' expanded' : ''}`}
      aria-label="Notifications"
      data-testid="notices"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={resume}
      onFocus={() => setPaused(true)}
      onBlur={resume}
    >
      <div role="log" aria-live="polite">
        <ul>
          {shown.map((n) => (
            <NoticeItem key={n.id} notice={n} />
          ))}
        </ul>
      </div>
      {(hidden > 0 || expanded) && (
        <button type="button" className="link small" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show fewer' : `${hidden} more`}
        </button>
      )}
    </section>
  );
}

export function Notices() {
  const raised = useConsole((s) => s.data.notices);
  const feedback = useConsole((s) => s.feedback);
  const dismissed = useConsole((s) => s.dismissed);
  const notices = useMemo(() => activeNotices(raised, feedback, dismissed), [raised, feedback, dismissed]);
  return notices.length === 0 ? null : <NoticeStrip notices={notices} />;
}
