/** Routes of `/v1/notification`: the in-app notifications (docs/api.md#extensions, README.md#notifications). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './notification.schemas.ts';
import * as service from './notification.service.ts';

const tags = ['notification'];

const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/notification',
    {
      schema: {
        tags,
        operationId: 'notification_list',
        summary: 'List in-app notifications',
        description:
          'Extension (not in the reference service). The in-app notifications of the business, newest first by the time of the event; `member_id` narrows to one member. Notifications are written by the notification dispatcher after the change that caused them committed: an inquiry created with `inChargeSet`, an inquiry status change, members added to `inChargeSet`, a text-history note. Only active members with notifications on receive them; each is also sent by e-mail and, when configured, push.',
        'x-extension': true,
        querystring: schemas.NotificationListQuery,
        response: { 200: schemas.NotificationPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );
};

export default notificationRoutes;
