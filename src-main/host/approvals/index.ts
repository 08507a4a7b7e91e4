/** Approvals: operator decisions on transaction revisions and the single-use receipts they yield. */
export { ApprovalDesk, type ApprovalEvents, type Decision, type WaitOptions } from './approval-desk.js';
export { ReceiptSigner, receiptInvalid, type ReceiptBinding } from './receipts.js';
