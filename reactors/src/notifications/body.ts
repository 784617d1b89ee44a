// What a webhook receiver is sent of an event: see shownEvent (no hidden field, no secret, sealed or in env).
import type { RecordedEvent } from '@berth/shared/events/event';
import { shownEvent } from '@berth/shared/events/shown';

export const notificationBodyOf = (event: RecordedEvent): string => JSON.stringify(shownEvent(event, 'receiver'));
