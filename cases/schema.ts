/** JSON Schemas for suite.json and case files (checked with ajv; errors name the file, case and field). */

const stringArray = { type: 'array', items: { type: 'string' } } as const;

const toolCall = {
  type: 'object',
  required: ['id', 'name', 'input'],
  properties: { id: { type: 'string', minLength: 1 }, name: { type: 'string', minLength: 1 }, input: {} },
} as const;

const toolResult = {
  type: 'object',
  required: ['callId', 'content'],
  properties: {
    callId: { type: 'string' },
    content: { type: 'string' },
    isError: { type: 'boolean' },
    cleared: { type: 'boolean' },
  },
} as const;

const message = {
  type: 'object',
  required: ['role'],
  properties: {
    role: { enum: ['user', 'assistant'] },
    agent: { type: 'string' },
    text: { type: 'string' },
    toolCalls: { type: 'array', items: toolCall },
    toolResults: { type: 'array', items: toolResult },
    compacted: { type: 'boolean' },
  },
} as const;

export const transcriptSchema = {
  $id: 'transcript',
  type: 'object',
  required: ['messages', 'agents'],
  properties: {
    id: { type: 'string' },
    messages: { type: 'array', items: message },
    agents: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['role'],
        properties: {
          role: { enum: ['primary', 'escalation', 'child', 'parent'] },
          model: { type: 'string' },
        },
      },
    },
    children: { type: 'object', additionalProperties: { $ref: 'transcript' } },
    meta: { type: 'object' },
  },
} as const;

const assertion = {
  type: 'object',
  required: ['id', 'kind', 'statement', 'claim', 'cues'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1 },
    kind: { enum: ['confident', 'hedged', 'assumption', 'unresolved'] },
    statement: { type: 'string', minLength: 1 },
    claim: { type: 'string', minLength: 1 },
    cues: { type: 'array', minItems: 1, items: { type: 'string', minLength: 2 } },
    qualifierCues: { type: 'array', items: { type: 'string', minLength: 2 } },
    provenance: stringArray,
    location: { enum: ['final_message', 'mid_transcript', 'tool_result_only', 'primary_tool_evidence'] },
    status: { enum: ['proposed', 'confirmed'] },
  },
} as const;

const cueItem = {
  type: 'object',
  required: ['id', 'text', 'cues'],
  properties: {
    id: { type: 'string' },
    text: { type: 'string' },
    cues: { type: 'array', minItems: 1, items: { type: 'string', minLength: 2 } },
  },
} as const;

const reference = {
  type: 'object',
  required: ['facts', 'caveats'],
  additionalProperties: false,
  properties: {
    facts: { type: 'array', items: cueItem },
    caveats: stringArray,
    evidence: { type: 'array', items: cueItem },
    contradictions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['between', 'topic'],
        properties: {
          between: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
          topic: { type: 'string' },
        },
      },
    },
    notSearched: stringArray,
    orchestration: {
      type: 'object',
      required: ['request', 'cues'],
      properties: {
        request: { type: 'string' },
        cues: stringArray,
        calls: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name'],
            additionalProperties: false,
            properties: { name: { type: 'string' }, input: { type: 'object' } },
          },
        },
      },
    },
    expectedWords: { type: 'number', minimum: 1 },
  },
} as const;

/** A transcript inline, or a file to import (path relative to the case file). */
const transcriptOrFile = {
  oneOf: [
    { $ref: 'transcript' },
    {
      type: 'object',
      required: ['file'],
      additionalProperties: false,
      properties: { file: { type: 'string' }, from: { type: 'string' }, child: { type: 'string' } },
    },
  ],
} as const;

export const caseSchema = {
  $id: 'case',
  type: 'object',
  required: ['id', 'task', 'source', 'assertions', 'reference'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    id: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' },
    suite: { type: 'string' },
    title: { type: 'string' },
    direction: { enum: ['return', 'escalation', 'spawn'] },
    task: { type: 'string', minLength: 1 },
    source: transcriptOrFile,
    sources: { type: 'array', items: transcriptOrFile },
    receiverHistory: transcriptOrFile,
    spawnCallId: { type: 'string' },
    receiverAgent: { type: 'string' },
    sessionShape: { enum: ['owned', 'handed-off'] },
    assertions: { type: 'array', items: assertion },
    reference,
    criteria: stringArray,
    world: {
      type: 'object',
      additionalProperties: false,
      properties: {
        files: { type: 'object', additionalProperties: { type: 'string' } },
        tables: { type: 'object' },
        docs: { type: 'object', additionalProperties: { type: 'string' } },
        tests: {
          type: 'object',
          required: ['command', 'output', 'exitCode'],
          additionalProperties: false,
          properties: {
            command: { type: 'string' },
            output: { type: 'string' },
            exitCode: { type: 'integer' },
            scopes: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                required: ['output', 'exitCode'],
                additionalProperties: false,
                properties: { output: { type: 'string' }, exitCode: { type: 'integer' } },
              },
            },
            run: {
              type: 'object',
              required: ['argv'],
              additionalProperties: false,
              properties: {
                argv: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
                timeoutMs: { type: 'integer', minimum: 1, maximum: 600000 },
                files: { type: 'object', additionalProperties: { type: 'string' } },
              },
            },
          },
        },
        writable: { type: 'boolean' },
      },
    },
    tags: stringArray,
    provenance: {
      type: 'object',
      description: 'where a case built from a real session came from (file, license, who labelled it)',
    },
  },
} as const;

const arm = {
  type: 'object',
  required: ['name', 'strategy', 'models'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' },
    strategy: { type: 'string' },
    params: { type: 'object' },
    models: {
      type: 'object',
      required: ['source', 'receiver'],
      additionalProperties: false,
      properties: { source: { type: 'string' }, receiver: { type: 'string' } },
    },
    mode: { enum: ['recorded', 'live'] },
    allowTruncation: { type: 'boolean' },
    description: { type: 'string' },
  },
} as const;

export const suiteSchema = {
  $id: 'suite',
  type: 'object',
  required: ['id', 'title', 'description', 'direction', 'criteria', 'arms', 'baselineArm'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    id: { type: 'string', pattern: '^[a-z0-9-]+$' },
    title: { type: 'string' },
    description: { type: 'string' },
    direction: { enum: ['return', 'escalation', 'spawn'] },
    criteria: { type: 'array', minItems: 1, items: { type: 'string' } },
    primaryCriterion: { type: 'string' },
    arms: { type: 'array', minItems: 1, items: arm },
    baselineArm: { type: 'string' },
    generator: {
      type: 'object',
      required: ['module'],
      additionalProperties: false,
      properties: {
        module: { type: 'string' },
        seed: { type: 'integer' },
        count: { type: 'integer', minimum: 1 },
      },
    },
  },
} as const;
