/**
 * The database interface: table name → row type. Row types live in `tables/` (one file per
 * resource, `tables/<resource>.table.ts`); this file only assembles them for Kysely.
 */
import type { Kysely, Transaction } from 'kysely';
import type { ApiKeyTable, BusinessTable, McpTokenTable } from './tables/auth.table.ts';
import type {
  ClientStatusTable,
  ContractCategoryTable,
  FieldMemberTable,
  FieldOptionTable,
  FieldTable,
  FolderTable,
  GradeTable,
  InquiryStatusTable,
  MemberTable,
  SettlementTypeTable,
  WorkerPositionTable,
} from './tables/catalog.table.ts';
import type { ClientFieldValueTable, ClientTable } from './tables/client.table.ts';
import type { ApiLogTable } from './tables/log.table.ts';
import type { RateLimitCounterTable } from './tables/rate-limit.table.ts';
import type { ContractCategoryLinkTable, ContractFieldValueTable, ContractTable } from './tables/contract.table.ts';
import type { ContractNoteTable, SettlementNoteTable } from './tables/note.table.ts';
import type {
  SettlementInChargeTable,
  SettlementStatusHistoryTable,
  SettlementTable,
} from './tables/settlement.table.ts';
import type { ProjectTable } from './tables/project.table.ts';
import type { TodoTable } from './tables/todo.table.ts';
import type { WorkerTable } from './tables/worker.table.ts';
import type {
  InquiryCounterTable,
  InquiryEmailHistoryTable,
  InquiryEmailReplyHistoryTable,
  InquiryFieldValueTable,
  InquiryFileLinkTable,
  InquiryFolderHistoryTable,
  InquiryInChargeTable,
  InquiryStatusHistoryTable,
  InquirySubmitHistoryTable,
  InquiryTable,
  InquiryTextHistoryTable,
  InquiryWorkTable,
} from './tables/inquiry.table.ts';
import type { NotificationOutboxTable, NotificationTable } from './tables/notification.table.ts';
import type { FileTable, InquiryFileTable } from './tables/file.table.ts';
import type { EstimateItemClassificationTable, EstimateItemTable } from './tables/estimate.table.ts';
import type { IdempotencyKeyTable } from './tables/idempotency.table.ts';
import type { SignatureReplayTable } from './tables/signature-replay.table.ts';
import type { EventFollowerTable, EventSequenceTable, EventTable } from './tables/event.table.ts';
import type { WebhookDeliveryTable, WebhookEndpointTable } from './tables/webhook.table.ts';
import type { TransferIdMapTable, TransferOriginTable } from './tables/transfer.table.ts';

/** Every table of the schema, by name (migration 2026_11_22_0001 onwards). */
export interface Database {
  business: BusinessTable;
  api_key: ApiKeyTable;
  mcp_token: McpTokenTable;
  grade: GradeTable;
  member: MemberTable;
  folder: FolderTable;
  inquiry_status: InquiryStatusTable;
  client_status: ClientStatusTable;
  field: FieldTable;
  field_option: FieldOptionTable;
  field_member: FieldMemberTable;
  contract_category: ContractCategoryTable;
  settlement_type: SettlementTypeTable;
  worker_position: WorkerPositionTable;
  client: ClientTable;
  client_field_value: ClientFieldValueTable;
  api_log: ApiLogTable;
  rate_limit_counter: RateLimitCounterTable;
  contract: ContractTable;
  contract_category_link: ContractCategoryLinkTable;
  contract_field_value: ContractFieldValueTable;
  contract_note: ContractNoteTable;
  settlement: SettlementTable;
  settlement_in_charge: SettlementInChargeTable;
  settlement_status_history: SettlementStatusHistoryTable;
  settlement_note: SettlementNoteTable;
  project: ProjectTable;
  worker: WorkerTable;
  todo: TodoTable;
  // migration 2026_11_22_0002_inquiry
  inquiry_counter: InquiryCounterTable;
  inquiry: InquiryTable;
  inquiry_in_charge: InquiryInChargeTable;
  inquiry_work: InquiryWorkTable;
  inquiry_field_value: InquiryFieldValueTable;
  inquiry_file_link: InquiryFileLinkTable;
  inquiry_status_history: InquiryStatusHistoryTable;
  inquiry_folder_history: InquiryFolderHistoryTable;
  inquiry_text_history: InquiryTextHistoryTable;
  inquiry_email_history: InquiryEmailHistoryTable;
  inquiry_email_reply_history: InquiryEmailReplyHistoryTable;
  inquiry_submit_history: InquirySubmitHistoryTable;
  notification_outbox: NotificationOutboxTable;
  notification: NotificationTable;
  // migration 2026_11_22_0003_file
  file: FileTable;
  inquiry_file: InquiryFileTable;
  // migration 2026_11_24_0031_estimate_item
  estimate_item_classification: EstimateItemClassificationTable;
  estimate_item: EstimateItemTable;
  // migration 2026_11_24_0032_idempotency_signature
  idempotency_key: IdempotencyKeyTable;
  signature_replay: SignatureReplayTable;
  // migration 2026_11_26_0037_event
  event: EventTable;
  // migration 2026_11_26_0045_event_parent_sequence
  event_sequence: EventSequenceTable;
  // migration 2026_11_28_0120_event_follower
  event_follower: EventFollowerTable;
  // migration 2026_11_26_0039_webhook
  webhook_endpoint: WebhookEndpointTable;
  webhook_delivery: WebhookDeliveryTable;
  // migration 2026_11_26_0042_transfer
  transfer_origin: TransferOriginTable;
  transfer_id_map: TransferIdMapTable;
}

/** The handle every repository takes: the database itself or an open transaction. */
export type Db = Kysely<Database> | Transaction<Database>;
