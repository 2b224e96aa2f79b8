import { detectIntent, detectSafetyHazard, detectUrgency, type ChatReply, type SafetyHazard } from '#shared/chat.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { companyFacts } from './company-facts.ts';
import type { ChatQuestion, ChatResponder } from './chat-responder.ts';

/**
 * Fixed safety scripts: danger to people comes before everything else, whichever responder is
 * configured (the chat service checks them first).
 */
export function safetyReply(hazard: SafetyHazard, company: CompanyProfile): ChatReply {
  const scripts: Record<SafetyHazard, string> = {
    gas:
      'If you smell gas, leave the house now and take everyone with you. Do not switch lights or appliances on or off, light anything, or use a phone inside. ' +
      `Once you are outside, call your gas company's emergency number or 911. When they have made it safe, call our 24/7 line at ${company.emergencyPhone} and we will check your equipment.`,
    carbon_monoxide:
      'If your carbon monoxide alarm is sounding, get everyone (and pets) out into fresh air now and call 911. Do not go back inside until the fire department says it is safe. ' +
      `Headaches, dizziness or nausea are warning signs: get medical help. Then call us at ${company.emergencyPhone} and we will find the source before you use the system again.`,
    burning:
      'Turn your heating or cooling off at the thermostat and, if you can do it safely, at the breaker. If you see smoke or flames, leave the house and call 911. ' +
      `Otherwise call our 24/7 line at ${company.emergencyPhone}, and please do not run the system until a technician has checked it.`,
  };
  return { message: scripts[hazard], category: 'safety', urgency: 'emergency', action: 'call_now', intent: 'emergency' };
}

function repairAdvice(message: string, company: CompanyProfile): string {
  const text = message.toLowerCase();
  const offer = `If that does not fix it, I can book a technician for you: fill in the Schedule Service form below, or call ${company.phone}.`;
  if (/(water|leak|drip|flood)/.test(text)) {
    return `Water around the indoor unit usually means a clogged condensate drain. Turn the system off at the thermostat to stop the overflow, check the drain pan and the float switch, and make sure the filter is not soaked. ${offer}`;
  }
  if (/(heat|warm|furnace|cold air|freez)/.test(text) && !/(ac|a\/c|cool)/.test(text)) {
    return `Sorry you are without heat. A few quick checks: 1) the thermostat is set to Heat and above the room temperature, with fresh batteries; 2) the air filter is not clogged; 3) the breakers for the indoor and outdoor units are on; 4) a heat pump that steams for a few minutes is defrosting, which is normal. ${offer}`;
  }
  if (/(noise|noisy|rattl|squeal|bang|buzz)/.test(text)) {
    return `New noises are worth catching early. Turn the system off if you hear grinding or banging, check that nothing is caught in the outdoor unit, and note when the noise happens (start-up, running, shut-off): it helps our technician. ${offer}`;
  }
  return (
    'Sorry your AC is giving you trouble. A few quick checks: 1) the thermostat is set to Cool and below the room temperature, with fresh batteries; 2) the air filter is not clogged; ' +
    '3) the breakers for the indoor and outdoor units are on; 4) if you see ice on the copper lines or the indoor coil, turn the system off and set the fan to On for a few hours to thaw it. ' +
    offer
  );
}

/** The built-in assistant: the spec's intents and urgency rules, answered from the company's facts. */
export function createRuleBasedResponder(company: CompanyProfile): ChatResponder & { answer: (question: ChatQuestion) => ChatReply } {
  const facts = companyFacts(company);

  function answer(question: ChatQuestion): ChatReply {
    const { message } = question;
    const hazard = detectSafetyHazard(message);
    if (hazard) return safetyReply(hazard, company);
    const intent = detectIntent(message);
    const urgency = detectUrgency(message, intent === 'repair_needed' ? 'repair' : undefined);
    const named = question.customerName ? `${question.customerName.split(' ')[0]}, ` : '';

    switch (intent) {
      case 'emergency':
        return {
          message: `${named ? `${named}for` : 'For'} emergency service please call our 24/7 line now at ${company.emergencyPhone}: a technician is on call around the clock. You can also leave your details in the form below and we will call you right back.`,
          category: 'emergency',
          urgency: urgency === 'low' || urgency === 'medium' ? 'high' : urgency,
          action: 'show_form',
          intent,
        };
      case 'business_hours':
        return { message: facts.hoursSentence, category: 'hours', urgency, action: 'none', intent };
      case 'pricing_inquiry':
        return {
          message: `${facts.serviceCallFee} ${facts.freeEstimates} Our yearly maintenance plans: ${facts.plans.map((plan) => plan.split(':')[0]).join(', ')}, with 10% to 20% off repairs. Would you like a free estimate or a visit? Just ask and I will open the booking form.`,
          category: 'pricing',
          urgency,
          action: 'none',
          intent,
        };
      case 'repair_needed':
        return { message: repairAdvice(message, company), category: 'repair', urgency, action: 'show_form', intent };
      case 'schedule_service':
        return {
          message: `${named}I can book that for you. Please fill in the Schedule Service form below and our team will confirm your appointment within 24 hours.`,
          category: 'scheduling',
          urgency,
          action: 'show_form',
          intent,
        };
      case 'maintenance_inquiry':
        return {
          message: `We recommend a tune-up twice a year: cooling in spring, heating in fall. Plans: ${facts.plans.join('; ')}. Want me to schedule a tune-up?`,
          category: 'maintenance',
          urgency,
          action: 'none',
          intent,
        };
      default: {
        const town = facts.towns.find((name) => message.toLowerCase().includes(name.toLowerCase()));
        const areaAnswer = town ? `Yes, we serve ${town} and the rest of the Low Country. ` : '';
        return {
          message: `${areaAnswer}I can help with AC and heating repair, new systems, maintenance plans and booking a visit anywhere in ${facts.townsSentence}. What can I help you with? You can also call us at ${company.phone}.`,
          category: 'general',
          urgency,
          action: 'none',
          intent,
        };
      }
    }
  }

  return { kind: 'rules', answer, reply: async (question) => answer(question), probe: async (question) => answer(question).message };
}
