/** What other modules use of remote control: the approval classes and the lease a command runs under. */
export { approvalClassesFor } from './approval-classes.ts';
export { leaseForCommand, readLease } from './lease-service.ts';
