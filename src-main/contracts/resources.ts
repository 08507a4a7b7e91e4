/** Resource subscriptions as the rooms that own resources (bridge, host) and the MCP room share them. */

/** One agent session's hold on one resource. */
export interface ResourceSubscription {
  /**
   * Whose resource it is (with several projects, two may publish the same URI): an update names the
   * topic it is for, and only sessions holding that topic hear it.
   */
  readonly topic: string;
  /** Idempotent; the owner hears when the last session released its topic. */
  release(): void;
}

export interface ResourceUpdate {
  uri: string;
  topic: string;
}
