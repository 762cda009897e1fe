export { seededRandom } from '@liftlink/protocol';
