/** Version of the skill-store suite; it follows the SkillStore contract version (v1.0). */
export const SKILL_STORE_SUITE_VERSION = '1.0.0';
