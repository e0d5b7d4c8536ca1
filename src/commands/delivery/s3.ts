import { defineVerb } from '../../cli/command.js';
import { nonEmpty, required } from '../../validate/index.js';
import type { S3Fields } from '../../api/delivery.js';
import { UsageError } from '../../errors.js';
import {
  ACTIVE_OPTIONS,
  SQUID_OPTION,
  activeFlag,
  configureDelivery,
  envSecret,
  squidToConfigure,
} from './_shared/common.js';

export default defineVerb({
  name: 's3',
  writes: true,
  summary: "Upload a squid's results to an S3 bucket (POST /v1/delivery)",
  description:
    'Configures S3 delivery for one squid: files go to s3://<bucket>/<target-path>/<file>.csv. AWS keys are read ' +
    'from the environment variables named by --access-key-env and --secret-key-env (both or neither; never on the ' +
    'command line). Without keys the bucket must be publicly writable. Active unless --inactive.',
  options: [
    SQUID_OPTION,
    { flags: '--bucket <bucket>', description: 'bucket name' },
    { flags: '--target-path <path>', description: 'folder inside the bucket ("" for the top)' },
    { flags: '--access-key-env <VAR>', description: 'environment variable holding the AWS access key id' },
    { flags: '--secret-key-env <VAR>', description: 'environment variable holding the AWS secret access key' },
    {
      flags: '--access-key <key>',
      description: 'not accepted: see --access-key-env',
      secretTrap: '--access-key-env VAR',
    },
    {
      flags: '--secret-key <key>',
      description: 'not accepted: see --secret-key-env',
      secretTrap: '--secret-key-env VAR',
    },
    ...ACTIVE_OPTIONS,
  ],
  examples: [
    'sq delivery s3 --squid "Paris restaurants" --bucket my-exports --target-path paris --access-key-env ' +
      'AWS_ACCESS_KEY_ID --secret-key-env AWS_SECRET_ACCESS_KEY',
    'sq delivery s3 --squid 3f2a --bucket public-drop --target-path ""',
  ],
  async run(ctx, _args, opts) {
    const squidRef = squidToConfigure(opts);
    const bucket = nonEmpty('--bucket', required('--bucket', opts.bucket, 'the bucket name'));
    if (typeof opts.targetPath !== 'string')
      throw new UsageError('--target-path is required (pass "" for the top of the bucket)');
    if ((opts.accessKeyEnv === undefined) !== (opts.secretKeyEnv === undefined)) {
      throw new UsageError(
        '--access-key-env and --secret-key-env go together: give both, or neither for a publicly writable bucket',
      );
    }
    const s3: S3Fields = {
      bucket,
      target_path: opts.targetPath.replace(/^\/+|\/+$/g, ''),
      is_active: activeFlag(opts),
    };
    if (typeof opts.accessKeyEnv === 'string')
      s3.aws_access_key = envSecret(ctx, '--access-key-env', opts.accessKeyEnv);
    if (typeof opts.secretKeyEnv === 'string')
      s3.aws_secret_key = envSecret(ctx, '--secret-key-env', opts.secretKeyEnv);
    await configureDelivery(ctx, {
      squidRef,
      body: { s3_fields: s3 },
      channel: 'S3',
      success: (squid) => `S3 delivery configured for squid ${squid}: s3://${bucket}/${s3.target_path}`,
      secrets: [s3.aws_access_key, s3.aws_secret_key],
    });
  },
});
