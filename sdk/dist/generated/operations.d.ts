/** Every operation of the document: operationId → HTTP method and path template. */
export declare const operations: {
    readonly client_create: {
        readonly method: "post";
        readonly path: "/v1/client";
    };
    readonly client_destroy: {
        readonly method: "delete";
        readonly path: "/v1/client/{client_id}";
    };
    readonly client_list: {
        readonly method: "get";
        readonly path: "/v1/client";
    };
    readonly client_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/client/{client_id}";
    };
    readonly client_retrieve: {
        readonly method: "get";
        readonly path: "/v1/client/{client_id}";
    };
    readonly client_status_list: {
        readonly method: "get";
        readonly path: "/v1/client/status";
    };
    readonly contract_category_list: {
        readonly method: "get";
        readonly path: "/v1/contract/category";
    };
    readonly contract_create: {
        readonly method: "post";
        readonly path: "/v1/contract";
    };
    readonly contract_destroy: {
        readonly method: "delete";
        readonly path: "/v1/contract/{contract_id}";
    };
    readonly contract_history_create: {
        readonly method: "post";
        readonly path: "/v1/contract/{contract_id}/history";
    };
    readonly contract_history_destroy: {
        readonly method: "delete";
        readonly path: "/v1/contract/{contract_id}/history/{history_id}";
    };
    readonly contract_history_list: {
        readonly method: "get";
        readonly path: "/v1/contract/{contract_id}/history";
    };
    readonly contract_history_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/contract/{contract_id}/history/{history_id}";
    };
    readonly contract_history_retrieve: {
        readonly method: "get";
        readonly path: "/v1/contract/{contract_id}/history/{history_id}";
    };
    readonly contract_list: {
        readonly method: "get";
        readonly path: "/v1/contract";
    };
    readonly contract_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/contract/{contract_id}";
    };
    readonly contract_retrieve: {
        readonly method: "get";
        readonly path: "/v1/contract/{contract_id}";
    };
    readonly estimate_item_classification_list: {
        readonly method: "get";
        readonly path: "/v1/estimate/item/classification";
    };
    readonly estimate_item_create: {
        readonly method: "post";
        readonly path: "/v1/estimate/item";
    };
    readonly estimate_item_destroy: {
        readonly method: "delete";
        readonly path: "/v1/estimate/item/{item_id}";
    };
    readonly estimate_item_list: {
        readonly method: "get";
        readonly path: "/v1/estimate/item";
    };
    readonly estimate_item_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/estimate/item/{item_id}";
    };
    readonly estimate_item_retrieve: {
        readonly method: "get";
        readonly path: "/v1/estimate/item/{item_id}";
    };
    readonly event_list: {
        readonly method: "get";
        readonly path: "/v1/event";
    };
    readonly event_retrieve: {
        readonly method: "get";
        readonly path: "/v1/event/{event_id}";
    };
    readonly event_stream_list: {
        readonly method: "get";
        readonly path: "/v1/event/stream";
    };
    readonly field_list: {
        readonly method: "get";
        readonly path: "/v1/field";
    };
    readonly files_retrieve: {
        readonly method: "get";
        readonly path: "/files/{business_id}/{object}";
    };
    readonly files_update: {
        readonly method: "put";
        readonly path: "/files/{business_id}/{object}";
    };
    readonly folder_list: {
        readonly method: "get";
        readonly path: "/v1/folder";
    };
    readonly healthz_retrieve: {
        readonly method: "get";
        readonly path: "/healthz";
    };
    readonly inquiry_create: {
        readonly method: "post";
        readonly path: "/v1/inquiry";
    };
    readonly inquiry_destroy: {
        readonly method: "delete";
        readonly path: "/v1/inquiry/{inquiry_id}";
    };
    readonly inquiry_email_history_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/email_history";
    };
    readonly inquiry_email_reply_history_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/email_reply_history";
    };
    readonly inquiry_file_destroy: {
        readonly method: "delete";
        readonly path: "/v1/inquiry/{inquiry_id}/file/{file_id}";
    };
    readonly inquiry_folder_history_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/folder_history";
    };
    readonly inquiry_history_create: {
        readonly method: "post";
        readonly path: "/v1/inquiry/{inquiry_id}/history";
    };
    readonly inquiry_history_destroy: {
        readonly method: "delete";
        readonly path: "/v1/inquiry/{inquiry_id}/history/{history_id}";
    };
    readonly inquiry_history_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/history";
    };
    readonly inquiry_history_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/inquiry/{inquiry_id}/history/{history_id}";
    };
    readonly inquiry_history_retrieve: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/history/{history_id}";
    };
    readonly inquiry_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry";
    };
    readonly inquiry_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/inquiry/{inquiry_id}";
    };
    readonly inquiry_retrieve: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}";
    };
    readonly inquiry_status_history_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/status_history";
    };
    readonly inquiry_status_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/status";
    };
    readonly inquiry_submit_history_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/submit_history";
    };
    readonly inquiry_text_history_create: {
        readonly method: "post";
        readonly path: "/v1/inquiry/{inquiry_id}/text_history";
    };
    readonly inquiry_text_history_destroy: {
        readonly method: "delete";
        readonly path: "/v1/inquiry/{inquiry_id}/text_history/{history_id}";
    };
    readonly inquiry_text_history_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/text_history";
    };
    readonly inquiry_text_history_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/inquiry/{inquiry_id}/text_history/{history_id}";
    };
    readonly inquiry_text_history_retrieve: {
        readonly method: "get";
        readonly path: "/v1/inquiry/{inquiry_id}/text_history/{history_id}";
    };
    readonly inquiry_work_list: {
        readonly method: "get";
        readonly path: "/v1/inquiry/work";
    };
    readonly log_list: {
        readonly method: "get";
        readonly path: "/v1/log/";
    };
    readonly member_list: {
        readonly method: "get";
        readonly path: "/v1/member";
    };
    readonly metrics_retrieve: {
        readonly method: "get";
        readonly path: "/metrics";
    };
    readonly notification_list: {
        readonly method: "get";
        readonly path: "/v1/notification";
    };
    readonly presigned_create: {
        readonly method: "post";
        readonly path: "/v1/presigned";
    };
    readonly project_create: {
        readonly method: "post";
        readonly path: "/v1/project";
    };
    readonly project_destroy: {
        readonly method: "delete";
        readonly path: "/v1/project/{project_id}";
    };
    readonly project_list: {
        readonly method: "get";
        readonly path: "/v1/project";
    };
    readonly project_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/project/{project_id}";
    };
    readonly project_retrieve: {
        readonly method: "get";
        readonly path: "/v1/project/{project_id}";
    };
    readonly readyz_retrieve: {
        readonly method: "get";
        readonly path: "/readyz";
    };
    readonly root_retrieve: {
        readonly method: "get";
        readonly path: "/";
    };
    readonly settlement_create: {
        readonly method: "post";
        readonly path: "/v1/settlement";
    };
    readonly settlement_destroy: {
        readonly method: "delete";
        readonly path: "/v1/settlement/{settlement_id}";
    };
    readonly settlement_history_create: {
        readonly method: "post";
        readonly path: "/v1/settlement/{settlement_id}/history";
    };
    readonly settlement_history_destroy: {
        readonly method: "delete";
        readonly path: "/v1/settlement/{settlement_id}/history/{history_id}";
    };
    readonly settlement_history_list: {
        readonly method: "get";
        readonly path: "/v1/settlement/{settlement_id}/history";
    };
    readonly settlement_history_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/settlement/{settlement_id}/history/{history_id}";
    };
    readonly settlement_history_retrieve: {
        readonly method: "get";
        readonly path: "/v1/settlement/{settlement_id}/history/{history_id}";
    };
    readonly settlement_list: {
        readonly method: "get";
        readonly path: "/v1/settlement";
    };
    readonly settlement_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/settlement/{settlement_id}";
    };
    readonly settlement_retrieve: {
        readonly method: "get";
        readonly path: "/v1/settlement/{settlement_id}";
    };
    readonly settlement_status_history_list: {
        readonly method: "get";
        readonly path: "/v1/settlement/{settlement_id}/status_history";
    };
    readonly settlement_type_list: {
        readonly method: "get";
        readonly path: "/v1/settlement/type";
    };
    readonly todo_create: {
        readonly method: "post";
        readonly path: "/v1/todo";
    };
    readonly todo_destroy: {
        readonly method: "delete";
        readonly path: "/v1/todo/{todo_id}";
    };
    readonly todo_list: {
        readonly method: "get";
        readonly path: "/v1/todo";
    };
    readonly todo_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/todo/{todo_id}";
    };
    readonly todo_retrieve: {
        readonly method: "get";
        readonly path: "/v1/todo/{todo_id}";
    };
    readonly webhook_create: {
        readonly method: "post";
        readonly path: "/v1/webhook";
    };
    readonly webhook_delivery_list: {
        readonly method: "get";
        readonly path: "/v1/webhook/{webhook_id}/delivery";
    };
    readonly webhook_delivery_retry: {
        readonly method: "post";
        readonly path: "/v1/webhook/{webhook_id}/delivery/{delivery_id}/retry";
    };
    readonly webhook_destroy: {
        readonly method: "delete";
        readonly path: "/v1/webhook/{webhook_id}";
    };
    readonly webhook_list: {
        readonly method: "get";
        readonly path: "/v1/webhook";
    };
    readonly webhook_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/webhook/{webhook_id}";
    };
    readonly webhook_recover_create: {
        readonly method: "post";
        readonly path: "/v1/webhook/{webhook_id}/recover";
    };
    readonly webhook_replay_create: {
        readonly method: "post";
        readonly path: "/v1/webhook/{webhook_id}/replay";
    };
    readonly webhook_resume: {
        readonly method: "post";
        readonly path: "/v1/webhook/{webhook_id}/resume";
    };
    readonly webhook_retrieve: {
        readonly method: "get";
        readonly path: "/v1/webhook/{webhook_id}";
    };
    readonly webhook_rotate_secret: {
        readonly method: "post";
        readonly path: "/v1/webhook/{webhook_id}/rotate_secret";
    };
    readonly webhook_test: {
        readonly method: "post";
        readonly path: "/v1/webhook/{webhook_id}/test";
    };
    readonly worker_create: {
        readonly method: "post";
        readonly path: "/v1/worker";
    };
    readonly worker_destroy: {
        readonly method: "delete";
        readonly path: "/v1/worker/{worker_id}";
    };
    readonly worker_list: {
        readonly method: "get";
        readonly path: "/v1/worker";
    };
    readonly worker_partial_update: {
        readonly method: "patch";
        readonly path: "/v1/worker/{worker_id}";
    };
    readonly worker_retrieve: {
        readonly method: "get";
        readonly path: "/v1/worker/{worker_id}";
    };
};
/** An operationId of the API. */
export type OperationId = keyof typeof operations;
